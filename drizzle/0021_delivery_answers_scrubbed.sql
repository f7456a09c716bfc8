-- Decision 234: a destination's delivery log keeps the receiver's status in Baton's words, never
-- its body. Bodies kept before (the first 500 characters, after the status on a delivery, alone on
-- a failure) are scrubbed: a delivery keeps "HTTP <status>", a failure its reason alone, and the
-- reasons that quoted a network error take Baton's fixed words.
UPDATE "notifications" SET
  "provider_response" = CASE
    WHEN "status" = 'sent' AND "provider_response" ~ '^[1-5][0-9][0-9]( |$)'
      THEN 'HTTP ' || substr("provider_response", 1, 3)
    ELSE NULL
  END,
  "last_error" = CASE
    WHEN "last_error" LIKE 'The destination timed out%' THEN 'Not delivered: timed out'
    WHEN "last_error" LIKE 'The destination unreachable%' THEN 'Not delivered: unreachable'
    ELSE "last_error"
  END
WHERE "channel" = 'chat'
  AND ("provider_response" IS NOT NULL
    OR "last_error" LIKE 'The destination timed out%'
    OR "last_error" LIKE 'The destination unreachable%');
