//! parlour: a stateless gRPC rules service for a family of abstract board
//! games.
//!
//! The rules live in the `parlour-engine` crate, which knows nothing of
//! gRPC. This crate converts between protobuf and engine types
//! ([`convert`]), implements the `parlour.v1.Rules` service ([`service`]),
//! maps engine errors to rich gRPC statuses ([`errors`]), traces,
//! counts and logs each call ([`calls`], [`telemetry`]) and runs the server
//! with its health, reflection, limits and graceful shutdown ([`server`]).

pub mod arena;
pub mod calls;
pub mod convert;
pub mod errors;
pub mod healthcheck;
pub mod loadtest;
pub mod server;
pub mod service;
pub mod telemetry;

/// The generated protobuf types and tonic stubs of `parlour.v1`.
pub mod pb {
    #![allow(clippy::all, missing_docs)]
    tonic::include_proto!("parlour.v1");

    /// The encoded file descriptor set of `proto/`, for server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("parlour_descriptor");
}

pub use server::{run, ServerConfig, TlsConfig};
