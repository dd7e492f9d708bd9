-- Claims (leases) on scheduled work: whichever process claims a piece of work first
-- does it; the others see the claim and leave it alone until it expires.
CREATE TABLE claims (
    name   TEXT NOT NULL PRIMARY KEY,
    holder TEXT NOT NULL,
    until  TEXT NOT NULL
);
