CREATE TYPE "public"."crm_provider" AS ENUM('gohighlevel', 'hubspot', 'salesforce');--> statement-breakpoint
ALTER TABLE "api_settings" ADD COLUMN "crm_provider" "crm_provider" DEFAULT 'gohighlevel' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_settings" ADD COLUMN "hubspot_token_encrypted" text;--> statement-breakpoint
ALTER TABLE "api_settings" ADD COLUMN "hubspot_token_last4" text;--> statement-breakpoint
ALTER TABLE "api_settings" ADD COLUMN "salesforce_instance_url" text;--> statement-breakpoint
ALTER TABLE "api_settings" ADD COLUMN "salesforce_client_id" text;--> statement-breakpoint
ALTER TABLE "api_settings" ADD COLUMN "salesforce_client_secret_encrypted" text;--> statement-breakpoint
ALTER TABLE "api_settings" ADD COLUMN "salesforce_client_secret_last4" text;--> statement-breakpoint
ALTER TABLE "crm_syncs" ADD COLUMN "provider" "crm_provider" DEFAULT 'gohighlevel' NOT NULL;