-- Two-factor sign-in and password rotation (ADR 045).
ALTER TABLE "sessions" ADD COLUMN "two_factor_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Sessions open before two-factor sign-in existed passed every step sign-in had then: they stay
-- signed in; the new default (false) applies to sessions made from now on.
UPDATE "sessions" SET "two_factor_verified" = true;--> statement-breakpoint
-- When each existing password was set is not recorded anywhere (updated_at moves with any
-- profile edit): the 90 days start at this migration, so turning rotation on never locks
-- every account out at once.
ALTER TABLE "users" ADD COLUMN "password_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_key_sealed" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "recovery_code_hashes" text[] DEFAULT '{}'::text[] NOT NULL;
