//! parlour: a stateless gRPC rules service for a family of abstract board
//! games.
//!
//! The rules live in the `parlour-engine` crate, which knows nothing of
//! gRPC. This crate converts between protobuf and engine types
//! ([`convert`]), implements the `parlour.v1.Rules` service ([`service`]),
//! maps engine errors to rich gRPC statuses ([`errors`]), traces,
//! counts and logs each call ([`calls`], [`telemetry`]) and runs the server
//! with its health, reflection, limits and graceful shutdown ([`server`]).
//! Endgame tables are built, or loaded from a folder, by [`tables`].
//!
//! The client tools of the `parlour` binary (`healthcheck`, `arena`,
//! `bench`) are not part of this library: they are modules of the binary
//! (`src/main.rs`), built on the public API here and on the engine.

pub mod calls;
pub mod config;
pub mod convert;
pub mod echo;
pub mod errors;
pub mod malloc;
pub mod render;
pub mod server;
pub mod service;
pub mod tables;
pub mod telemetry;
pub mod transport;
pub mod web;

/// The generated protobuf types and tonic stubs of `parlour.v1`.
pub mod pb {
    #![allow(clippy::all, missing_docs)]
    tonic::include_proto!("parlour.v1");

    /// The encoded file descriptor set of `proto/`, for server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("parlour_descriptor");
}

pub use server::{run, ServerConfig, TlsConfig};

/// The same messages as [`pb`], with the proto3 JSON mapping (pbjson's serde
/// impls, well-known types from pbjson-types): what the web front transcodes
/// JSON with. Same wire format as [`pb`], so bytes pass between them.
pub mod pbjson {
    #![allow(clippy::all, missing_docs)]
    include!(concat!(env!("OUT_DIR"), "/json/parlour.v1.rs"));
    include!(concat!(env!("OUT_DIR"), "/json/parlour.v1.serde.rs"));
}
