CREATE TYPE "public"."member_plan" AS ENUM('free', 'team_member_basic');--> statement-breakpoint
ALTER TABLE "billing_accounts" ALTER COLUMN "plan" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "billing_accounts" ALTER COLUMN "plan" SET DEFAULT 'free';--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "member_plan" "member_plan" DEFAULT 'free' NOT NULL;