-- Issue 25: an instrument's own maker and taker fee rates (D222), when they are not its kind's default (null: 0.1 %
-- for spot and margin, D72; 0.02 % maker and 0.06 % taker for futures, D156). 0 to 0.1, at most 8 decimals.
alter table instrument add column maker_fee_rate numeric(10, 8);
alter table instrument add column taker_fee_rate numeric(10, 8);
