-- Integrity rules drizzle-kit cannot express. Kept in SQL so both engines enforce them.

-- A unique order per rotation. Deferrable so a reorder can swap positions inside one transaction.
ALTER TABLE "rotation_members"
  ADD CONSTRAINT "rotation_members_rotation_order_key" UNIQUE ("rotation_id", "order")
  DEFERRABLE INITIALLY DEFERRED;
--> statement-breakpoint
-- The baton holder is a member of the rotation. Removing that membership (or the user) clears the
-- holder instead of leaving the rotation pointing at a non-member; services pass the baton on first.
ALTER TABLE "rotations"
  ADD CONSTRAINT "rotations_holder_is_member_fk" FOREIGN KEY ("id", "holder_user_id")
  REFERENCES "rotation_members" ("rotation_id", "user_id")
  ON DELETE SET NULL ("holder_user_id");
