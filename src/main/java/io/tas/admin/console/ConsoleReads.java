package io.tas.admin.console;

import io.tas.account.AccountService;
import io.tas.auth.ApiKeyService;
import io.tas.ledger.Ledger;
import io.tas.market.MarketService;
import io.tas.spot.SpotRecords;
import io.tas.spot.UnifiedRecords;
import io.tas.trade.TradingService;

/**
 * The domain services whose reads the console shows beside the control plane's (D200): accounts and sub-accounts,
 * keys, the ledger's balances and journal, instruments, the engine's orders and book, fills and records. The console
 * changes nothing through them but keys (create, revoke), as the admin API does.
 */
public record ConsoleReads(AccountService accounts, ApiKeyService keys, Ledger ledger, MarketService market, TradingService trading,
                           UnifiedRecords unifiedRecords, SpotRecords spot) {}
