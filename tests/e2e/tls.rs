//! End to end: TLS and mutual TLS with generated certificates.

use crate::common::*;
use parlour::pb::{self, rules_client::RulesClient};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};

struct Pki {
    ca_pem: String,
    server_cert: String,
    server_key: String,
    client_cert: String,
    client_key: String,
    other_ca_pem: String,
}

fn ca(name: &str) -> (String, Issuer<'static, KeyPair>) {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.distinguished_name.push(DnType::CommonName, name);
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let key = KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    (cert.pem(), Issuer::new(params, key))
}

fn leaf(issuer: &Issuer<'_, KeyPair>, names: &[&str]) -> (String, String) {
    let params = CertificateParams::new(names.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = params.signed_by(&key, issuer).unwrap();
    (cert.pem(), key.serialize_pem())
}

fn pki() -> Pki {
    let (ca_pem, issuer) = ca("parlour test CA");
    let (server_cert, server_key) = leaf(&issuer, &["localhost", "127.0.0.1"]);
    let (client_cert, client_key) = leaf(&issuer, &["client.parlour.test"]);
    let (other_ca_pem, _) = ca("some other CA");
    Pki { ca_pem, server_cert, server_key, client_cert, client_key, other_ca_pem }
}

async fn connect(server: &TestServer, tls: ClientTlsConfig) -> Result<Channel, tonic::transport::Error> {
    Channel::from_shared(format!("https://localhost:{}", server.addr.port())).unwrap().tls_config(tls)?.connect().await
}

async fn list(ch: Channel) -> Result<usize, tonic::Status> {
    Ok(RulesClient::new(ch).list_games(pb::ListGamesRequest {}).await?.into_inner().games.len())
}

#[tokio::test]
async fn serves_over_tls_and_refuses_plaintext() {
    let p = pki();
    let config = parlour::ServerConfig {
        tls: Some(parlour::TlsConfig {
            cert_pem: p.server_cert.clone().into(),
            key_pem: p.server_key.clone().into(),
            client_ca_pem: None,
        }),
        ..Default::default()
    };
    let server = TestServer::with_config(config).await;
    let tls = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(&p.ca_pem)).domain_name("localhost");
    let ch = connect(&server, tls).await.expect("TLS handshake");
    assert!(list(ch).await.unwrap() >= 1);

    // A client that trusts another CA cannot connect.
    let wrong = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(&p.other_ca_pem)).domain_name("localhost");
    let refused = match connect(&server, wrong).await {
        Err(_) => true,
        Ok(ch) => list(ch).await.is_err(),
    };
    assert!(refused, "an untrusted server certificate is refused");

    // Plaintext HTTP/2 to a TLS port fails.
    let plain = Channel::from_shared(server.url()).unwrap().connect().await;
    let refused = match plain {
        Err(_) => true,
        Ok(ch) => list(ch).await.is_err(),
    };
    assert!(refused, "plaintext is refused on a TLS port");
}

#[tokio::test]
async fn mutual_tls_requires_a_client_certificate_from_the_ca() {
    let p = pki();
    let config = parlour::ServerConfig {
        tls: Some(parlour::TlsConfig {
            cert_pem: p.server_cert.clone().into(),
            key_pem: p.server_key.clone().into(),
            client_ca_pem: Some(p.ca_pem.clone().into()),
        }),
        ..Default::default()
    };
    let server = TestServer::with_config(config).await;
    let base = || ClientTlsConfig::new().ca_certificate(Certificate::from_pem(&p.ca_pem)).domain_name("localhost");

    let with_cert = base().identity(Identity::from_pem(&p.client_cert, &p.client_key));
    let ch = connect(&server, with_cert).await.expect("mTLS handshake");
    assert!(list(ch).await.unwrap() >= 1);

    let refused = match connect(&server, base()).await {
        Err(_) => true,
        Ok(ch) => list(ch).await.is_err(),
    };
    assert!(refused, "a client without a certificate is refused");

    // A certificate from another CA is refused too.
    let (_, other_issuer) = ca("rogue CA");
    let (rogue_cert, rogue_key) = leaf(&other_issuer, &["rogue"]);
    let rogue = base().identity(Identity::from_pem(&rogue_cert, &rogue_key));
    let refused = match connect(&server, rogue).await {
        Err(_) => true,
        Ok(ch) => list(ch).await.is_err(),
    };
    assert!(refused, "a client certificate from another CA is refused");
}

#[tokio::test]
async fn healthcheck_speaks_tls_and_mtls() {
    let p = pki();
    let config = parlour::ServerConfig {
        tls: Some(parlour::TlsConfig {
            cert_pem: p.server_cert.clone().into(),
            key_pem: p.server_key.clone().into(),
            client_ca_pem: Some(p.ca_pem.clone().into()),
        }),
        ..Default::default()
    };
    let server = TestServer::with_config(config).await;
    let addr = format!("https://localhost:{}", server.addr.port());
    let dir = std::env::temp_dir().join(format!("parlour-tls-healthcheck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, pem: &str| {
        let path = dir.join(name);
        std::fs::write(&path, pem).unwrap();
        path.to_str().unwrap().to_string()
    };
    let (ca, cert, key) =
        (file("ca.pem", &p.ca_pem), file("client.pem", &p.client_cert), file("client.key", &p.client_key));
    let base = ["--addr", addr.as_str(), "--timeout-ms", "5000"];
    let with_cert =
        run_healthcheck(&[&base[..], &["--tls-ca", &ca, "--tls-cert", &cert, "--tls-key", &key]].concat()).await;
    let no_cert = run_healthcheck(&[&base[..], &["--tls-ca", &ca]].concat()).await;
    let plaintext = run_healthcheck(&base).await;
    let _ = std::fs::remove_dir_all(&dir);
    let text = |o: &std::process::Output| {
        format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
    };
    assert_eq!(with_cert.status.code(), Some(0), "SERVING over mTLS: {}", text(&with_cert));
    assert_eq!(no_cert.status.code(), Some(1), "no client certificate: {}", text(&no_cert));
    assert_eq!(plaintext.status.code(), Some(1), "plaintext to a TLS port: {}", text(&plaintext));
}
