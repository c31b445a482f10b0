-- Fair delivery scheduling: the worker takes at most a few due deliveries of each webhook per
-- round, so that one webhook's backlog never hides another's. This index finds a webhook's
-- earliest due deliveries without reading its finished history.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries(webhook_id, next_attempt_at, id)
  WHERE status = 'pending';
