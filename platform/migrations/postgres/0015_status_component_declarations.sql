-- A component status an operator sets on a component by itself, without an incident, in
-- Statuspage's words (operational, degraded_performance, partial_outage, major_outage); NULL
-- clears it (the component shows what the checks measure). One row per setting, `seq` counting
-- from 1 per component, so each is one autocommit INSERT and the table is the log of who set what,
-- when (`author` the identity provider's user id, `created_at` unix milliseconds). A component's
-- latest row is in force; the page combines it with what the checks measure
-- (mg_domain::component_status).
CREATE TABLE status_component_declarations (
    component   TEXT    NOT NULL,
    seq         BIGINT  NOT NULL,
    status      TEXT,
    created_at  BIGINT  NOT NULL,
    author      TEXT    NOT NULL,
    PRIMARY KEY (component, seq)
);
CREATE INDEX status_component_declarations_by_time ON status_component_declarations (created_at);
-- Deleting an account unnames the settings its operator made, in the deletion's statement, as 0013
-- does for their notices and webhooks.
CREATE INDEX status_component_declarations_by_author ON status_component_declarations (author);
CREATE FUNCTION unname_component_statuses_of_deleted_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE status_component_declarations SET author = 'former operator' WHERE author = OLD.identity_id;
    RETURN NULL;
END;
$$;
CREATE TRIGGER deleting_a_user_unnames_their_component_statuses AFTER DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION unname_component_statuses_of_deleted_user();
