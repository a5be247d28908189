package io.tas;

import io.micrometer.core.instrument.MeterRegistry;
import io.tas.account.AccountService;
import io.tas.accountswitch.AccountSwitchService;
import io.tas.accountswitch.SwitchCheck;
import io.tas.admin.SandboxClock;
import io.tas.auth.ApiKeyService;
import io.tas.auth.SecretCipher;
import io.tas.config.Config;
import io.tas.convert.SmallAssetConversion;
import io.tas.copytrade.CopyTradeService;
import io.tas.jobs.Jobs;
import io.tas.ledger.Ledger;
import io.tas.loan.LoanService;
import io.tas.market.MarketService;
import io.tas.market.PriceService;
import io.tas.marketdata.TradeTape;
import io.tas.position.LeverageService;
import io.tas.position.PositionHistory;
import io.tas.position.PositionService;
import io.tas.reality.RealityService;
import io.tas.risk.DeltaNeutral;
import io.tas.risk.MaxWithdrawal;
import io.tas.spot.SpotRecords;
import io.tas.spot.UnifiedRecords;
import io.tas.store.ChangeFeed;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import io.tas.strategy.StrategyService;

import java.time.Clock;
import java.util.List;

/**
 * Every domain service of one node, built once in dependency order (App.start). The API's features and the admin
 * surface take what they need from here by name: a new service is one field, a new feature one entry in App.FEATURES.
 */
final class Domain {
    final AccountService accounts;
    final ApiKeyService keys;
    final MarketService market;
    /** The engine's public trades and candles (issue 25): the engine records each fill here, in the fill's Tx. */
    final TradeTape tape;
    final PriceService prices;
    final Ledger ledger;
    final LoanService loans;
    final PositionService positions;
    final PositionHistory positionHistory;
    final StrategyService strategies;
    final CopyTradeService copyTrading;
    final LeverageService leverage;
    final DeltaNeutral deltaNeutral;
    final SmallAssetConversion conversion;
    final MaxWithdrawal maxWithdrawal;
    final SpotRecords spot;
    final UnifiedRecords unifiedRecords;
    final RealityService reality;
    final AccountSwitchService switches;
    final io.tas.trade.TradingService trading;
    final io.tas.trade.TpslOrders tpsl;
    /** The clock clients sign with: a sandbox clock moved forward moves domain time, not the clients' (SandboxClock). */
    final Clock signatures;

    Domain(Config config, Clock clock, Database db, IdGenerator ids, ChangeFeed changes, Jobs jobs, MeterRegistry metrics) {
        accounts = new AccountService(db, clock, ids, config.cacheEnabled(), changes);
        keys = new ApiKeyService(db, clock, new SecretCipher(config.masterKey()), accounts, changes);
        market = new MarketService(db, changes);
        tape = new TradeTape(db, ids);
        market.onTicker(tape::onTicker); // candles follow price moves (D162); it logs its own failures
        prices = new PriceService(market);
        ledger = new Ledger(db, clock, ids);
        loans = new LoanService(db, clock, ledger, prices);
        positions = new PositionService(db, clock, ids, ledger, market, prices, accounts);
        positionHistory = new PositionHistory(db, clock, ids, accounts, market);
        strategies = new StrategyService(db, clock, ids, accounts);
        copyTrading = new CopyTradeService(db, clock, accounts);
        ledger.bindMetrics(metrics);
        accounts.bindMetrics(metrics);
        leverage = new LeverageService(db, clock, ledger, market, prices, accounts);
        deltaNeutral = new DeltaNeutral(db, ledger, market, prices, positions, DeltaNeutral.Config.of(config.features().deltaPositionThreshold()));
        conversion = new SmallAssetConversion(db, clock, ids, ledger, prices, config.features().convert());
        maxWithdrawal = new MaxWithdrawal(db, ledger, prices, positions);
        spot = new SpotRecords(db, clock, ids, accounts);
        unifiedRecords = new UnifiedRecords(db, clock, ids, accounts);
        trading = new io.tas.trade.TradingService(db, clock, ids, ledger, market, prices, accounts, positions, spot, tape,
                conversion.config().platformToken(), io.tas.trade.SyntheticBook.DEFAULT);
        // D223: Reality orders are engine orders; the engine's ticker sweep below fills them like every resting order.
        reality = new RealityService(market, trading);
        // Working strategy orders and engine orders count as pending orders for set-hold-mode (D44).
        accounts.exposureFrom(strategies.withPendingOrders(trading.withWorkingOrders(positions::exposure)));
        // Issue 25: a committed ticker fills the engine's resting orders it crosses.
        market.onTicker(trading::onTicker);
        tpsl = new io.tas.trade.TpslOrders(db, strategies, positions, trading);
        market.onTicker(tpsl::onTicker);
        // Pending orders keep an account unified (SwitchCheck): working strategy, Reality and engine orders.
        switches = new AccountSwitchService(db, clock, accounts, ledger, jobs, config.features().accountSwitch(),
                List.of(SwitchCheck.openPositions(positions), SwitchCheck.pendingOrders(strategies), SwitchCheck.workingRealityOrders(trading),
                        SwitchCheck.workingOrders(trading)));
        signatures = clock instanceof SandboxClock sandboxClock ? sandboxClock.machine() : clock;
    }

    /** No services at all: only for listing which rows have handlers (App.productionRoutes). */
    private Domain() {
        accounts = null; keys = null; market = null; tape = null; prices = null; ledger = null; loans = null; positions = null;
        positionHistory = null; strategies = null; copyTrading = null; leverage = null; deltaNeutral = null; conversion = null;
        maxWithdrawal = null; spot = null; unifiedRecords = null; reality = null; switches = null; signatures = null;
        trading = null; tpsl = null;
    }

    static Domain unwired() { return new Domain(); }

    /** What must close when the node stops, in this order: the group commits drain their queues. */
    List<AutoCloseable> closeables() { return List.of(ledger, accounts); }
}
