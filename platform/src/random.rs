//! Random bytes and ids from the system's generator: every id and secret the server makes
//! (notices, webhooks and their signing keys, the emulator's codes and tokens, request ids) comes
//! from here.

use ring::rand::{SecureRandom, SystemRandom};

/// `N` bytes from the system's generator. It does not fail on Linux; should it, the bytes are
/// zeros, and every id made of them is refused by the primary key it is stored under (nothing
/// stored, a 503) rather than guessed.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    let _ = SystemRandom::new().fill(&mut bytes);
    bytes
}

/// `N` random bytes as `2 N` lower-case hex digits: the ids of notices and webhooks (16 bytes)
/// and webhooks' signing keys (32).
pub fn random_hex<const N: usize>() -> String {
    crate::hex::encode(&random_bytes::<N>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_hex_of_the_asked_length_and_differ() {
        let a = random_hex::<16>();
        assert_eq!(a.len(), 32);
        assert!(a
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        assert_ne!(a, random_hex::<16>());
        assert_ne!(random_bytes::<32>(), [0u8; 32]);
    }
}
