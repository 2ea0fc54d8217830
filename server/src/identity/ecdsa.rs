//! ECDSA signature malleability: for every signature (r, s) the pair (r, n - s) verifies too, so
//! one token could be sent as two strings (two cache entries, two "sessions"). Only the low-S form
//! (s <= n/2, as Bitcoin and Ethereum require) is accepted, and the emulator's signer emits it.

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
    if !is_high_s(algorithm, signature) {
        return;
    }
    let Some(n) = order(algorithm) else {
        return;
    };
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

#[cfg(test)]
mod tests {
    use super::*;

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
