-- The status an operator's update declares for its notice's components, in Statuspage's words
-- (operational, degraded_performance, partial_outage, major_outage, under_maintenance); NULL when
-- the update declares none. An open incident declares its latest update's non-NULL one; the page
-- combines it with what the checks measure (mg_domain::component_status).
ALTER TABLE status_notice_updates ADD COLUMN component_status TEXT;
