package io.tas.admin.console;

import io.helidon.webserver.http.HttpRouting;
import io.tas.account.AccountEnums.Category;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.market.Instrument;
import io.tas.trade.TradingService;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static io.tas.admin.console.Html.*;

/** The books: every instrument, and one symbol's order book as the public row shows it beside the engine's resting orders. */
final class MarketPages {
    static final int DEPTH = 15;

    private final ConsoleReads reads;

    MarketPages(ConsoleReads reads) { this.reads = reads; }

    void register(ConsoleRoutes c, HttpRouting.Builder r) {
        c.get(r, "/console/book", q -> instruments());
        c.get(r, "/console/book/{category}/{symbol}", this::book);
    }

    private ConsoleRoutes.Page instruments() {
        List<String> rows = new ArrayList<>();
        for (Instrument i : reads.market().instruments()) {
            var t = reads.market().ticker(i.category(), i.symbol());
            rows.add(tr("data-symbol=\"" + esc(i.symbol()) + "\" data-category=\"" + esc(i.category().wire()) + "\"",
                    td(i.category().wire()), "<td>" + link("/console/book/" + i.category().wire() + "/" + i.symbol(), i.symbol()) + "</td>",
                    td(i.baseCoin()), td(i.quoteCoin()), num(t.map(x -> x.lastPrice()).orElse(null)),
                    num(t.map(x -> x.bid1Price()).orElse(null)), num(t.map(x -> x.ask1Price()).orElse(null))));
        }
        return new ConsoleRoutes.Page("Books", "book", table("instruments", List.of("Category", "Symbol", "Base", "Quote", "Last",
                "Bid", "Ask"), rows, "No instruments."));
    }

    private ConsoleRoutes.Page book(ConsoleRoutes.Req q) {
        Category category;
        try {
            category = Category.fromWire(q.path("category"));
        } catch (IllegalArgumentException e) {
            throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        }
        String symbol = q.path("symbol");
        TradingService.Book book = reads.trading().orderBook(category, symbol, DEPTH);
        TradingService.Book resting = reads.trading().restingLevels(category, symbol, DEPTH);
        String body = "<p>As the public order book row answers it: the synthetic levels around the ticker merged with the engine's "
                + "resting orders (engine.md), best first.</p>"
                + "<div style=\"display:flex;gap:24px\"><div><h2>Bids</h2>" + levels("book-bids", book.bids()) + "</div>"
                + "<div><h2>Asks</h2>" + levels("book-asks", book.asks()) + "</div></div>"
                + "<h2>Resting orders of every account</h2><div style=\"display:flex;gap:24px\"><div><h2>Bids</h2>"
                + levels("resting-bids", resting.bids()) + "</div><div><h2>Asks</h2>" + levels("resting-asks", resting.asks()) + "</div></div>";
        return new ConsoleRoutes.Page(category.wire() + " " + symbol + " book", "book", body);
    }

    private static String levels(String id, List<BigDecimal[]> levels) {
        List<String> rows = levels.stream().map(l -> tr("data-price=\"" + esc(plain(l[0])) + "\"", num(l[0]),
                "<td class=\"n\" data-field=\"size\">" + esc(plain(l[1])) + "</td>")).toList();
        return table(id, List.of("Price", "Size"), rows, "None.");
    }
}
