-- Issue 27 (D193): a futures ticker whose mark price moved pushes the position and account channels of the accounts
-- holding the symbol, found by this index (one read per move, not one per connected account).
create index futures_position_open_by_symbol on futures_position (category, symbol, status);
