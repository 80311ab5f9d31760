CREATE TABLE "account_deletions" (
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	CONSTRAINT "account_deletions_pkey" PRIMARY KEY("organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "departed_addresses" (
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"address" text NOT NULL,
	"successor_id" uuid,
	"departed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "departed_addresses_pkey" PRIMARY KEY("organization_id","kind","address"),
	CONSTRAINT "departed_addresses_kind" CHECK ("departed_addresses"."kind" in ('card', 'slug', 'name'))
);
--> statement-breakpoint
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_user_fk" FOREIGN KEY ("organization_id","user_id") REFERENCES "public"."users"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departed_addresses" ADD CONSTRAINT "departed_addresses_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written: "Delete my account" and the departed addresses (ADR 053)
ALTER TABLE "account_deletions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "account_deletions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "account_deletions_tenant_isolation" ON "account_deletions" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
ALTER TABLE "departed_addresses" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "departed_addresses" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "departed_addresses_tenant_isolation" ON "departed_addresses" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too.
GRANT SELECT, INSERT, UPDATE, DELETE ON "account_deletions" TO brandcard_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "departed_addresses" TO brandcard_app;--> statement-breakpoint
-- A departed address changes what a card page answers: the page cache drops the agency's pages
-- (ADR 021), as the deleted cards' own rows announce too.
CREATE TRIGGER "departed_addresses_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "departed_addresses" FOR EACH ROW EXECUTE FUNCTION "brandcard_notify_change"();
