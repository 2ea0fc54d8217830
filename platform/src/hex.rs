//! Lower-case hexadecimal, the one encoder the server uses (ETags, request ids, digests).

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Writes `bytes` as hex into `out`, two digits a byte, stopping at the shorter of the two.
pub fn encode_into(bytes: &[u8], out: &mut [u8]) {
    for (byte, pair) in bytes.iter().zip(out.chunks_exact_mut(2)) {
        pair[0] = DIGITS[usize::from(byte >> 4)];
        pair[1] = DIGITS[usize::from(byte & 0xf)];
    }
}

/// `bytes` as a hex string.
pub fn encode(bytes: &[u8]) -> String {
    let mut hex = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        hex.push(char::from(DIGITS[usize::from(byte >> 4)]));
        hex.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    hex
}

/// The bytes `hex` spells (either case); `None` for an odd length or a non-hex digit.
pub fn decode(hex: &str) -> Option<Vec<u8>> {
    if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_lower_case_digits_a_byte() {
        assert_eq!(super::encode(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
        let mut out = [b'-'; 6];
        super::encode_into(&[0xde, 0xad], &mut out);
        assert_eq!(&out, b"dead--");
        assert_eq!(
            super::decode("000FA5ff"),
            Some(vec![0x00, 0x0f, 0xa5, 0xff])
        );
        assert_eq!(super::decode("abc"), None);
        assert_eq!(super::decode("zz"), None);
        assert_eq!(super::decode("+f"), None);
    }
}
