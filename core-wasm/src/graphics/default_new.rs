//! The scenes' `Default`, in a file of its own so that the scenes import it without importing
//! the module that declares them.

/// `Default` as `new()`, for the scenes built without arguments (clippy's `new_without_default`):
/// one `default_is_new!(Scene);` beside the scene's type.
macro_rules! default_is_new {
    ($scene:ty) => {
        impl Default for $scene {
            fn default() -> Self {
                Self::new()
            }
        }
    };
}
pub(crate) use default_is_new;
