-- Issue 25: the synthetic book of an instrument (D155), when it is not the default: how many levels, how far apart
-- (basis points of the best price) and how deep each (base coin; null: the ticker's level-1 size).
alter table instrument add column book_levels integer;
alter table instrument add column book_step_bps numeric(10, 4);
alter table instrument add column book_level_size numeric(38, 18);
