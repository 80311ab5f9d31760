-- Issue 44 point 6 (ADR 098): every tenant table keyed by (organization_id, id), and every unique
-- key of a tenant table holding organization_id, as a Citus cluster sharded by organization needs
-- (docs/citus.md). Token lookups already name the organization, so per-organization keys suffice.
ALTER TABLE "email_confirmation_tokens" DROP CONSTRAINT "email_confirmation_tokens_token_hash_unique";--> statement-breakpoint
ALTER TABLE "password_reset_tokens" DROP CONSTRAINT "password_reset_tokens_token_hash_unique";--> statement-breakpoint
ALTER TABLE "team_invitations" DROP CONSTRAINT "team_invitations_token_hash_unique";--> statement-breakpoint
ALTER TABLE "team_members" DROP CONSTRAINT "team_members_team_user_key";--> statement-breakpoint
DROP INDEX "api_keys_hash_key";--> statement-breakpoint
DROP INDEX "scim_tokens_hash_key";--> statement-breakpoint
DROP INDEX "digital_cards_one_default_per_user";--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_org_hash_key" ON "api_keys" USING btree ("organization_id","key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_tokens_org_hash_key" ON "scim_tokens" USING btree ("organization_id","token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "digital_cards_one_default_per_user" ON "digital_cards" USING btree ("organization_id","user_id") WHERE "digital_cards"."is_default";--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "card_links" ADD CONSTRAINT "card_links_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "card_slugs" ADD CONSTRAINT "card_slugs_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "card_views" ADD CONSTRAINT "card_views_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "email_confirmation_tokens" ADD CONSTRAINT "email_confirmation_tokens_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "email_confirmation_tokens" ADD CONSTRAINT "email_confirmation_tokens_org_token_hash_key" UNIQUE("organization_id","token_hash");--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_org_token_hash_key" UNIQUE("organization_id","token_hash");--> statement-breakpoint
ALTER TABLE "scim_events" ADD CONSTRAINT "scim_events_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "sso_saml_requests" ADD CONSTRAINT "sso_saml_requests_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "stripe_events" ADD CONSTRAINT "stripe_events_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_org_token_hash_key" UNIQUE("organization_id","token_hash");--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_org_team_user_key" UNIQUE("organization_id","team_id","user_id");--> statement-breakpoint
ALTER TABLE "wallet_registrations" ADD CONSTRAINT "wallet_registrations_org_id_key" UNIQUE("organization_id","id");--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_org_id_key" UNIQUE("organization_id","id");