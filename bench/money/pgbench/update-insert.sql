\set u random(1, 16)
BEGIN;
update simple set v = v - 1 where id = :u;
insert into simple_j (b, amount) values (:u, -1);
COMMIT;
