-- People who signed in through the identity provider. `identity_id` is the verified JWT `sub`.
-- Times are unix milliseconds; `updated_at` stays NULL until the first profile update ('Never updated').
CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    identity_id   TEXT    NOT NULL UNIQUE,
    email         TEXT,
    name          TEXT,
    login_provider TEXT,
    provider_profile TEXT,
    created_at    BIGINT  NOT NULL,
    updated_at    BIGINT
);
