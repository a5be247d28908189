package io.tas.loan;

import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Routes;

import java.util.List;

/** §4.3 loan data. */
public final class LoanRoutes implements Routes.Feature {
    private final LoanService loans;

    public LoanRoutes(LoanService loans) { this.loans = loans; }

    @Override
    public void register(Routes routes) { routes.bind(Endpoint.LOAN_DATA, this::loanData); }

    /** §2.12 */
    public record LoanDataView(String currentLoans, String interestPaymentTime, List<DebtView> debtCoinList) {}

    public record DebtView(String coin, String debt, String interestFreeAmount, String interestRateNextHour) {}

    private LoanDataView loanData(ApiRequest r) {
        var d = loans.loanData(r.uid());
        return new LoanDataView(Json.plain(d.currentLoansUsd()), Long.toString(d.interestPaymentTime()),
                d.debts().stream().map(x -> new DebtView(x.coin(), Json.plain(x.debt()), Json.plain(x.interestFreeAmount()),
                        Json.plain(x.annualRate()))).toList());
    }
}
