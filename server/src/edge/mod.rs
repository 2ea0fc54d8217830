//! The edge of the HTTP stack: what every request passes before and after its route (request id,
//! span, one spelling per path, CORS, security headers, the JSON error shape).

pub mod cors;
pub mod frontline;
pub mod hardening;
pub mod own_errors;
pub mod path;
