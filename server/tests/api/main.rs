//! Integration tests: each starts the real server on port 0 with a fresh database.
//! Every scenario that reaches the database runs on SQLite and on PostgreSQL (`on_both_backends!`; the
//! PostgreSQL run when `MG_TEST_POSTGRES_URL` is set, which CI always does); one that never does (pages,
//! static files, headers, configuration) runs on SQLite alone (`on_sqlite!`).

#[macro_use]
mod helpers;
mod account;
mod account_bodies;
mod account_traces;
mod auth;
mod binary;
mod connection_lifetimes;
mod connections;
mod deploy;
#[macro_use]
mod durability;
mod durability_account;
mod edge;
mod emulator;
mod emulator_sessions;
mod errors;
mod faults;
mod forged_tokens;
mod forged_tokens_more;
mod hardening;
mod health;
mod identity_double;
mod isolation;
mod local_state;
mod logout;
mod paths;
mod prerendered;
mod revocation;
mod revocation_emulator;
mod runtime_config;
mod sessions;
mod static_files;
mod status;
mod status_answer_sizes;
mod status_component_status;
mod status_corrections;
mod status_instances;
mod status_maintenance_days;
mod status_operators;
mod status_operators_durability;
mod status_outage;
mod status_page;
mod status_storage;
mod status_viewpoints;
mod status_webhooks;
mod status_webhooks_durability;
mod status_webhooks_instances;
mod status_webhooks_receivers;
mod webhook_receiver;
mod wisdom;
