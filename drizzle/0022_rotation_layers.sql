ALTER TABLE "rotations" DROP CONSTRAINT "rotations_cadence_check";--> statement-breakpoint
ALTER TABLE "rotations" ADD COLUMN "cadence_every" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "rotations" ADD COLUMN "layers" jsonb;--> statement-breakpoint
ALTER TABLE "rotations" ADD CONSTRAINT "rotations_cadence_every_check" CHECK ("rotations"."cadence_every" between 1 and 365);--> statement-breakpoint
ALTER TABLE "rotations" ADD CONSTRAINT "rotations_layers_check" CHECK ("rotations"."layers" is null or (jsonb_typeof("rotations"."layers") = 'array' and jsonb_array_length("rotations"."layers") between 1 and 10));--> statement-breakpoint
ALTER TABLE "rotations" ADD CONSTRAINT "rotations_cadence_check" CHECK ("rotations"."cadence" in ('hourly', 'daily', 'weekly'));