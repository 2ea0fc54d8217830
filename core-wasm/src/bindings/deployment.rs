//! Deployment info and flags (`src/deployment.rs`) for JavaScript.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::convert::{from_js, ms, read_json, to_js};
use crate::deployment::{DeploymentConfig, DeploymentInfo};

/// This deployment's info and landing texts, built once from the build-time config.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Deployment {
    info: DeploymentInfo,
    warning: Option<&'static str>,
}

#[wasm_bindgen]
impl Deployment {
    /// Reads `config` (fields of the wrong type read as absent) at time `nowMs`. The flags JSON
    /// is read with the browser's `JSON.parse`.
    #[wasm_bindgen(constructor)]
    pub fn new(config: Ts<DeploymentConfig>, now_ms: f64) -> Deployment {
        let (info, warning) = DeploymentInfo::build(from_js(config), ms(now_ms), read_json);
        Deployment { info, warning }
    }

    /// The deployment info (id, name, type, flags, status 'active', created, github_repo, landing texts).
    pub fn info(&self) -> Ts<DeploymentInfo> {
        to_js(&self.info)
    }

    /// 'Failed to parse VITE_DEPLOYMENT_FLAGS' when the flags JSON was unreadable (log it), else undefined.
    #[wasm_bindgen(getter)]
    pub fn warning(&self) -> Option<String> {
        self.warning.map(str::to_owned)
    }
}
