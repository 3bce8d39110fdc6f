# parlour: the gRPC rules service, as a small image running as a non-root user.
#
#   docker build -t parlour .
#   docker run --rm -p 50051:50051 parlour            # serve on :50051
#   docker run --rm parlour serve --help              # every flag (and its PARLOUR_* variable)
#
# The image's HEALTHCHECK runs `parlour healthcheck` (a grpc.health.v1 Check
# on 127.0.0.1:50051), so no separate probe binary is needed. Give `docker
# stop` more time than the server's drain + grace (`docker stop -t 40`, or
# `stop_grace_period` in compose): see docs/operations.md.

ARG RUST_VERSION=1.90

# ---- build ------------------------------------------------------------------
FROM rust:${RUST_VERSION}-bookworm AS build
WORKDIR /src

# Dependencies first, in their own layer: the manifests and lock file with
# placeholder sources (scripts/cargo-stub-sources writes one for every target
# the manifests declare, and a build.rs so the build-dependencies, protox and
# tonic-prost-build, are cached too). This layer is reused until a manifest or
# Cargo.lock changes.
COPY Cargo.toml Cargo.lock ./
COPY crates/engine/Cargo.toml crates/engine/Cargo.toml
COPY scripts/cargo-stub-sources /usr/local/bin/cargo-stub-sources
RUN cargo-stub-sources Cargo.toml crates/engine/Cargo.toml > /tmp/stubs \
    && cargo build --release --locked --bin parlour \
    && xargs rm -f < /tmp/stubs

# The real sources. Their files may be older than the placeholder build's
# outputs, so touch them: cargo decides what to rebuild by modification time.
COPY build.rs ./
COPY proto proto
COPY src src
COPY crates crates
# The playground's files, embedded in the binary (web/tests stays out).
COPY web web
RUN find build.rs proto src crates web -type f -exec touch {} + \
    && cargo build --release --locked --bin parlour \
    && cp target/release/parlour /usr/local/bin/parlour \
    && /usr/local/bin/parlour --version

# ---- run --------------------------------------------------------------------
FROM debian:bookworm-slim
# CA certificates for TLS to a telemetry collector; nothing else is needed
# (the binary links only glibc and libgcc).
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 parlour \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin parlour
COPY --from=build /usr/local/bin/parlour /usr/local/bin/parlour

USER 10001:10001
ENV PARLOUR_LISTEN=0.0.0.0:50051 \
    PARLOUR_LOG_FORMAT=json
EXPOSE 50051
# The server answers NOT_SERVING from the start of a shutdown, so a draining
# container shows as unhealthy too.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/parlour", "healthcheck", "--addr", "http://127.0.0.1:50051", "--timeout-ms", "2000"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/parlour"]
CMD ["serve"]
