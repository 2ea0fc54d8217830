//! The emulator's signing key, kept in `DATA_DIR` so tokens and the JWKS survive a restart.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use anyhow::Context;

use super::keys::{CurveAlgorithm, SigningKey};
use mg_platform::identity::sha256_hex;

const KEY_FILE: &str = "identity-emulator/signing-key-es256.pk8";

/// Where the key lives under `data_dir`.
pub fn key_path(data_dir: &Path) -> PathBuf {
    data_dir.join(KEY_FILE)
}

/// Loads the stored key, or makes and stores a new one on first start.
/// The `kid` is derived from the public key, so the same key always has the same `kid`.
pub fn load_or_create(data_dir: &Path) -> anyhow::Result<SigningKey> {
    let path = key_path(data_dir);
    let algorithm = CurveAlgorithm::Es256;
    if path.exists() {
        let der = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let key = SigningKey::from_pkcs8("pending", algorithm, &der)
            .with_context(|| format!("{} is not an ES256 PKCS#8 key", path.display()))?;
        return Ok(SigningKey::from_pkcs8(kid_of(&key), algorithm, &der)?);
    }
    let fresh = SigningKey::generate("pending", algorithm)?;
    let key = SigningKey::from_pkcs8(kid_of(&fresh), algorithm, fresh.pkcs8_der())?;
    if let Some(dir) = path.parent() {
        mg_platform::db::files::private_dir(dir)
            .with_context(|| format!("creating {}", dir.display()))?;
    }
    write_private(&path, key.pkcs8_der())?;
    tracing::info!(path = %path.display(), kid = key.kid(), "identity emulator signing key created");
    Ok(key)
}

fn kid_of(key: &SigningKey) -> String {
    format!("emu-{}", &sha256_hex(key.public_point())[..16])
}

/// Writes a private key readable by its owner only (written aside, then renamed into place).
fn write_private(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let partial = path.with_extension("partial");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options
        .open(&partial)
        .with_context(|| format!("creating {}", partial.display()))?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&partial, path).with_context(|| format!("storing {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_stored_once_and_loads_back_with_the_same_kid() {
        let dir = tempfile::tempdir().expect("temp dir");
        let first = load_or_create(dir.path()).expect("create");
        let again = load_or_create(dir.path()).expect("load");
        assert_eq!(first.kid(), again.kid());
        assert_eq!(first.public_jwk(), again.public_jwk());
        assert!(first.kid().starts_with("emu-"));
    }

    #[test]
    fn a_corrupt_key_file_is_a_clear_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = key_path(dir.path());
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, b"garbage").expect("write");
        let error = load_or_create(dir.path()).expect_err("garbage is refused");
        assert!(error.to_string().contains("is not an ES256 PKCS#8 key"));
    }
}
