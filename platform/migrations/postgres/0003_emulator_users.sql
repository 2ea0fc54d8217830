-- Accounts of the local identity emulator (development only): one per provider and e-mail, so
-- signing in again with the same account returns the same user id and `firstSeen: false`.
-- Unused when an external identity provider is configured. Times are unix milliseconds.
CREATE TABLE emulator_users (
    provider    TEXT    NOT NULL,
    email       TEXT    NOT NULL,
    user_id     TEXT    NOT NULL UNIQUE,
    name        TEXT    NOT NULL,
    username    TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (provider, email)
);
