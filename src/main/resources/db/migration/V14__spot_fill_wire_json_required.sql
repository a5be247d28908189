-- D75: every fill has its wire JSON once V13 has rendered the older rows; without a default, an insert that does not
-- go through SpotStore.insertFills fails loudly instead of storing '' (which would break the page's JSON array).
alter table spot_fill alter column wire_json drop default;
