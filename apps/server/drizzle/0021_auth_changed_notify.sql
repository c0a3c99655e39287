-- Every write that may end a session or change a user's rights tells every listening instance
-- (apps/server/src/modules/auth/session-cache.ts) to forget the sessions it keeps in memory.
-- One notification per statement; PostgreSQL folds identical ones within a transaction.
CREATE OR REPLACE FUNCTION notify_auth_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('auth_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER auth_tokens_changed AFTER UPDATE OR DELETE ON auth_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();--> statement-breakpoint
CREATE TRIGGER sso_users_changed AFTER UPDATE OR DELETE ON sso_users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();--> statement-breakpoint
CREATE TRIGGER sso_user_roles_changed AFTER INSERT OR UPDATE OR DELETE ON sso_user_roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();--> statement-breakpoint
CREATE TRIGGER sso_roles_changed AFTER UPDATE OR DELETE ON sso_roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
