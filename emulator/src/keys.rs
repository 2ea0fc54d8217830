//! Signing keys for session JWTs: generate, persist (PKCS#8), sign, and publish as a JWK.
//!
//! The server only verifies tokens; this module exists for the local identity emulator (which signs
//! tokens and serves its JWKS) and for the tests, so both use the same code as a real issuer would.

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use ring::{
    rand::SystemRandom,
    signature::{
        EcdsaKeyPair, KeyPair, ECDSA_P256_SHA256_FIXED_SIGNING, ECDSA_P384_SHA384_FIXED_SIGNING,
    },
};
use serde::Serialize;
use serde_json::{json, Value};
use thiserror::Error;

/// The elliptic-curve algorithms a key can be made for (both are in the provider's allowed set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurveAlgorithm {
    Es256,
    Es384,
}

impl CurveAlgorithm {
    fn ring(self) -> &'static ring::signature::EcdsaSigningAlgorithm {
        match self {
            CurveAlgorithm::Es256 => &ECDSA_P256_SHA256_FIXED_SIGNING,
            CurveAlgorithm::Es384 => &ECDSA_P384_SHA384_FIXED_SIGNING,
        }
    }

    pub fn jwt(self) -> Algorithm {
        match self {
            CurveAlgorithm::Es256 => Algorithm::ES256,
            CurveAlgorithm::Es384 => Algorithm::ES384,
        }
    }

    fn names(self) -> (&'static str, &'static str) {
        match self {
            CurveAlgorithm::Es256 => ("ES256", "P-256"),
            CurveAlgorithm::Es384 => ("ES384", "P-384"),
        }
    }
}

#[derive(Debug, Error)]
pub enum KeyError {
    #[error("key generation failed")]
    Generate,
    #[error("the stored key is not a valid PKCS#8 key for this curve")]
    BadPkcs8,
    #[error("signing failed: {0}")]
    Sign(#[from] jsonwebtoken::errors::Error),
}

/// One ECDSA signing key with its key id.
pub struct SigningKey {
    kid: String,
    algorithm: CurveAlgorithm,
    pkcs8: Vec<u8>,
    public_point: Vec<u8>,
    encoding: EncodingKey,
}

impl std::fmt::Debug for SigningKey {
    // The private key never goes into logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey")
            .field("kid", &self.kid)
            .field("algorithm", &self.algorithm)
            .finish_non_exhaustive()
    }
}

impl SigningKey {
    /// A fresh random key.
    pub fn generate(kid: impl Into<String>, algorithm: CurveAlgorithm) -> Result<Self, KeyError> {
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(algorithm.ring(), &SystemRandom::new())
            .map_err(|_| KeyError::Generate)?;
        Self::from_pkcs8(kid, algorithm, pkcs8.as_ref())
    }

    /// A key loaded from its PKCS#8 DER bytes (as returned by [`SigningKey::pkcs8_der`]).
    pub fn from_pkcs8(
        kid: impl Into<String>,
        algorithm: CurveAlgorithm,
        der: &[u8],
    ) -> Result<Self, KeyError> {
        let pair = EcdsaKeyPair::from_pkcs8(algorithm.ring(), der, &SystemRandom::new())
            .map_err(|_| KeyError::BadPkcs8)?;
        Ok(Self {
            kid: kid.into(),
            algorithm,
            pkcs8: der.to_vec(),
            public_point: pair.public_key().as_ref().to_vec(),
            encoding: EncodingKey::from_ec_der(der),
        })
    }

    pub fn kid(&self) -> &str {
        &self.kid
    }

    pub fn algorithm(&self) -> CurveAlgorithm {
        self.algorithm
    }

    /// The private key as PKCS#8 DER, for storing it so tokens survive a restart.
    pub fn pkcs8_der(&self) -> &[u8] {
        &self.pkcs8
    }

    /// The public key as an uncompressed SEC1 point (`04 || x || y`).
    pub fn public_point(&self) -> &[u8] {
        &self.public_point
    }

    /// Signs `claims` as a compact JWT whose header names this key's `kid` and algorithm. The
    /// signature is in its low-S form, the canonical spelling ([`mg_platform::identity::ecdsa`]).
    pub fn sign(&self, claims: &impl Serialize) -> Result<String, KeyError> {
        let mut header = Header::new(self.algorithm.jwt());
        header.kid = Some(self.kid.clone());
        let token = jsonwebtoken::encode(&header, claims, &self.encoding)?;
        let Some((signed, signature)) = token.rsplit_once('.') else {
            return Ok(token);
        };
        let Ok(mut raw) = URL_SAFE_NO_PAD.decode(signature) else {
            return Ok(token);
        };
        mg_platform::identity::ecdsa::make_low_s(self.algorithm.jwt(), &mut raw);
        Ok(format!("{signed}.{}", URL_SAFE_NO_PAD.encode(raw)))
    }

    /// The public half as a JWK, as served in `{"keys": [...]}` at `/v2/keys/<projectId>`.
    pub fn public_jwk(&self) -> Value {
        let (alg, crv) = self.algorithm.names();
        let coordinates = &self.public_point[1..];
        let (x, y) = coordinates.split_at(coordinates.len() / 2);
        json!({
            "kty": "EC",
            "crv": crv,
            "x": URL_SAFE_NO_PAD.encode(x),
            "y": URL_SAFE_NO_PAD.encode(y),
            "kid": self.kid,
            "alg": alg,
            "use": "sig",
        })
    }
}

/// `{"keys": [...]}` for a set of signing keys.
pub fn jwks(keys: &[&SigningKey]) -> Value {
    json!({ "keys": keys.iter().map(|key| key.public_jwk()).collect::<Vec<_>>() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_key_loads_back_with_the_same_public_key() {
        let key = SigningKey::generate("k1", CurveAlgorithm::Es256).expect("generate");
        let again =
            SigningKey::from_pkcs8("k1", CurveAlgorithm::Es256, key.pkcs8_der()).expect("load");
        assert_eq!(key.public_jwk(), again.public_jwk());
    }

    #[test]
    fn the_jwk_carries_kid_alg_use_and_coordinates_of_the_curve_size() {
        let key = SigningKey::generate("k384", CurveAlgorithm::Es384).expect("generate");
        let jwk = key.public_jwk();
        assert_eq!(jwk["kid"], "k384");
        assert_eq!(jwk["alg"], "ES384");
        assert_eq!(jwk["use"], "sig");
        let x = URL_SAFE_NO_PAD
            .decode(jwk["x"].as_str().expect("x"))
            .expect("base64url");
        assert_eq!(x.len(), 48);
    }

    #[test]
    fn signatures_are_always_low_s() {
        // ring picks a random nonce, so about half of raw signatures are high-S.
        let key = SigningKey::generate("k", CurveAlgorithm::Es256).expect("generate");
        for n in 0..64 {
            let token = key.sign(&json!({"n": n})).expect("sign");
            let signature = URL_SAFE_NO_PAD
                .decode(token.rsplit('.').next().expect("signature"))
                .expect("base64url");
            assert!(!mg_platform::identity::ecdsa::is_high_s(
                Algorithm::ES256,
                &signature
            ));
        }
    }

    #[test]
    fn a_signed_token_names_its_kid_in_the_header() {
        let key = SigningKey::generate("kid-7", CurveAlgorithm::Es256).expect("generate");
        let token = key.sign(&json!({"sub": "u"})).expect("sign");
        let header = jsonwebtoken::decode_header(&token).expect("header");
        assert_eq!(header.kid.as_deref(), Some("kid-7"));
        assert_eq!(header.alg, Algorithm::ES256);
    }
}
