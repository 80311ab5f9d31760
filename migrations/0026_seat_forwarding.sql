CREATE TABLE "seat_successors" (
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"successor_id" uuid NOT NULL,
	"handed_over_by_user_id" uuid,
	"handed_over_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seat_successors_pkey" PRIMARY KEY("organization_id","user_id"),
	CONSTRAINT "seat_successors_not_self" CHECK ("seat_successors"."user_id" <> "seat_successors"."successor_id")
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "personal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "seat_successors" ADD CONSTRAINT "seat_successors_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_successors" ADD CONSTRAINT "seat_successors_user_fk" FOREIGN KEY ("organization_id","user_id") REFERENCES "public"."users"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_successors" ADD CONSTRAINT "seat_successors_successor_fk" FOREIGN KEY ("organization_id","successor_id") REFERENCES "public"."users"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "seat_successors_org_successor_idx" ON "seat_successors" USING btree ("organization_id","successor_id");--> statement-breakpoint
-- hand-written: cards that outlive a seat (ADR 049)
ALTER TABLE "seat_successors" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "seat_successors" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "seat_successors_tenant_isolation" ON "seat_successors" USING ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on') WITH CHECK ("organization_id" = nullif(current_setting('app.organization_id', true), '')::uuid OR current_setting('app.platform_scope', true) = 'on');--> statement-breakpoint
-- Granted by 0001's default privileges already when the same owner migrates; stated here so a
-- database whose tables another owner created gets it too.
GRANT SELECT, INSERT, UPDATE, DELETE ON "seat_successors" TO brandcard_app;
