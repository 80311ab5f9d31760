-- Issue 45 point 3 (ADR 101): a contact read from a paper card by "Scan a card" says so.
ALTER TYPE "public"."contact_source" ADD VALUE 'scan';
