package io.tas.admin;

import io.tas.common.Inputs;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.BalanceKey;

import java.math.BigDecimal;
import java.util.function.Supplier;

/** The admin surface's reading of its bodies, on top of Inputs: every bad value is a 400 before anything is stored. */
final class AdminInputs {
    private AdminInputs() {}

    static <T> T parse(Supplier<T> f, String name) { return Inputs.parsed(f, name); }

    static <T> T require(T v, String name) {
        if (v == null) throw new ApiException(ErrorCode.PARAM_EMPTY, name);
        return v;
    }

    static <T> T or(T v, T otherwise) { return v != null ? v : otherwise; }

    static BigDecimal zeroIfNull(BigDecimal v) { return v != null ? v : BigDecimal.ZERO; }

    /** A text that must fit its column (Inputs.text: 40808 when longer). */
    static void maxLength(String name, String value, int max) { Inputs.text(name, value, max); }

    /** Each (name, value) pair that is given must fit the ledger's numeric(38, 18). */
    static void checkAmounts(Object... namesAndValues) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) Ledger.checkAmount((String) namesAndValues[i], (BigDecimal) namesAndValues[i + 1]);
        }
    }

    static String coin(String c) { return Inputs.coin("coin", c); }

    static String symbol(String s) { return Inputs.symbol("symbol", s); }

    static BalanceKey balanceKey(long uid, String account, String coin) {
        return new BalanceKey(uid, parse(() -> AccountType.valueOf(require(account, "account")), "account"), coin(coin));
    }
}
