//! ECDSA signature malleability: for every signature (r, s) the pair (r, n - s) verifies too, so
//! one token can be sent as two strings. Both forms are accepted (OpenSSL, Go, Java, WebCrypto and
//! cloud KMS signers do not normalise S, and the provider's own SDK accepts either), and a token is
//! known by its low-S spelling ([`canonical_token`]): the two strings of one token are one cache
//! entry and one session. The emulator's signer emits the low-S form directly.

use std::borrow::Cow;

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use jsonwebtoken::Algorithm;

/// The group order n of P-256, big-endian.
const P256_ORDER: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
];
/// The group order n of P-384, big-endian.
const P384_ORDER: [u8; 48] = [
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc7, 0x63, 0x4d, 0x81, 0xf4, 0x37, 0x2d, 0xdf,
    0x58, 0x1a, 0x0d, 0xb2, 0x48, 0xb0, 0xa7, 0x7a, 0xec, 0xec, 0x19, 0x6a, 0xcc, 0xc5, 0x29, 0x73,
];

fn order(algorithm: Algorithm) -> Option<&'static [u8]> {
    match algorithm {
        Algorithm::ES256 => Some(&P256_ORDER),
        Algorithm::ES384 => Some(&P384_ORDER),
        _ => None,
    }
}

/// Whether `signature` (JWS form: r || s, fixed width) of `algorithm` has s > n/2. Signatures of
/// other algorithms, or of the wrong length (which fail verification anyway), are not high-S.
pub fn is_high_s(algorithm: Algorithm, signature: &[u8]) -> bool {
    let Some(n) = order(algorithm) else {
        return false;
    };
    if signature.len() != 2 * n.len() {
        return false;
    }
    let s = &signature[n.len()..];
    // 2s > n  <=>  s > n/2 (n is odd); compare 2s with n without overflow by doubling bytewise.
    let mut doubled = vec![0u8; n.len()];
    let mut carry = 0u8;
    for i in (0..n.len()).rev() {
        let value = u16::from(s[i]) * 2 + u16::from(carry);
        doubled[i] = (value & 0xff) as u8;
        carry = (value >> 8) as u8;
    }
    carry == 1 || doubled.as_slice() > n
}

/// Turns a high-S `signature` into its low-S twin (s := n - s) in place; others stay as they are.
pub fn make_low_s(algorithm: Algorithm, signature: &mut [u8]) {
    if is_high_s(algorithm, signature) {
        twin(algorithm, signature);
    }
}

/// Turns `signature` (JWS form: r || s, fixed width) of `algorithm` into its twin in place, the
/// other spelling of the same signature: s := n - s (low S becomes high, high becomes low).
/// Signatures of other algorithms, or of the wrong length, stay as they are.
pub fn twin(algorithm: Algorithm, signature: &mut [u8]) {
    let Some(n) = order(algorithm) else {
        return;
    };
    if signature.len() != 2 * n.len() {
        return;
    }
    let s = &mut signature[n.len()..];
    let mut borrow = 0i16;
    for i in (0..n.len()).rev() {
        let mut value = i16::from(n[i]) - i16::from(s[i]) - borrow;
        borrow = 0;
        if value < 0 {
            value += 256;
            borrow = 1;
        }
        s[i] = value as u8;
    }
}

/// The spelling of a compact JWS by which it is known: its signature in the low-S form when it is an
/// ECDSA signature (64 bytes for P-256, 96 for P-384), else the token as it is. Both spellings
/// verify or fail together, so keying by this one never lets an unverified token in. RSA
/// signatures are never that short (the verifier refuses keys under 2048 bits), and a token whose
/// signature is not base64url is left alone (it fails verification anyway).
pub fn canonical_token(token: &str) -> Cow<'_, str> {
    let Some((signed, signature)) = token.rsplit_once('.') else {
        return Cow::Borrowed(token);
    };
    let algorithm = match signature.len() {
        86 => Algorithm::ES256,
        128 => Algorithm::ES384,
        _ => return Cow::Borrowed(token),
    };
    let Ok(mut raw) = URL_SAFE_NO_PAD.decode(signature) else {
        return Cow::Borrowed(token);
    };
    if !is_high_s(algorithm, &raw) {
        return Cow::Borrowed(token);
    }
    make_low_s(algorithm, &mut raw);
    Cow::Owned(format!("{signed}.{}", URL_SAFE_NO_PAD.encode(raw)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_high_s_token_and_its_low_s_twin_have_one_canonical_spelling() {
        let mut low = vec![7u8; 32];
        low.extend_from_slice(&[1u8; 32]);
        let mut high = low.clone();
        // n - s, where s = 1...1: the high twin.
        twin(Algorithm::ES256, &mut high);
        assert!(is_high_s(Algorithm::ES256, &high));
        let low_token = format!("h.p.{}", URL_SAFE_NO_PAD.encode(&low));
        let high_token = format!("h.p.{}", URL_SAFE_NO_PAD.encode(&high));
        assert!(matches!(canonical_token(&low_token), Cow::Borrowed(_)));
        assert_eq!(canonical_token(&high_token), low_token);
        // An RSA-sized signature, or one that is not base64url, is left as it is.
        let rsa = format!("h.p.{}", URL_SAFE_NO_PAD.encode([0xffu8; 256]));
        assert_eq!(canonical_token(&rsa), rsa);
        assert_eq!(canonical_token("h.p.!!"), "h.p.!!");
        assert_eq!(canonical_token("no-dots"), "no-dots");
    }

    #[test]
    fn s_just_above_half_the_order_is_high_and_flips_to_low() {
        // s = (n + 1) / 2 is the smallest high S; n - s = (n - 1) / 2 the largest low one.
        let mut signature = vec![1u8; 32];
        let mut half_up = P256_ORDER;
        // (n + 1) / 2: n is odd, so shift right by one bit and add one.
        let mut carry = 0u8;
        for byte in half_up.iter_mut() {
            let next = *byte & 1;
            *byte = (*byte >> 1) | (carry << 7);
            carry = next;
        }
        half_up[31] += 1;
        signature.extend_from_slice(&half_up);
        assert!(is_high_s(Algorithm::ES256, &signature));
        make_low_s(Algorithm::ES256, &mut signature);
        assert!(!is_high_s(Algorithm::ES256, &signature));
        assert_eq!(signature[..32], [1u8; 32], "r is untouched");
        // n - (n + 1) / 2 = (n - 1) / 2 = (n + 1) / 2 - 1
        let mut low = half_up;
        low[31] -= 1;
        assert_eq!(signature[32..], low[..]);
    }

    #[test]
    fn other_algorithms_and_lengths_are_left_alone() {
        assert!(!is_high_s(Algorithm::RS256, &[0xff; 64]));
        assert!(!is_high_s(Algorithm::ES256, &[0xff; 63]));
        assert!(is_high_s(Algorithm::ES384, &[0xff; 96]));
        assert!(!is_high_s(Algorithm::ES384, &[0x00; 96]));
    }
}
