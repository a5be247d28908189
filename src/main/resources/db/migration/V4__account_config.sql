-- Account configuration (issue 8). §4.1.2: an isolated contract in hedge mode may carry a different leverage per
-- side (longLeverage / shortLeverage). The existing column keeps the long side (and the one leverage of a crossed
-- contract); the short side gets its own.
alter table symbol_config add column short_leverage numeric(10, 2);
update symbol_config set short_leverage = leverage;
alter table symbol_config alter column short_leverage set not null;
