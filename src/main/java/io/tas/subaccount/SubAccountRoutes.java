package io.tas.subaccount;

import io.tas.account.Account;
import io.tas.account.AccountService;
import io.tas.account.AccountService.SubAccountPage;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Routes;

import java.util.List;

/** §4.3 sub-list: main accounts only (catalog guard), limit default 100 max 100, cursor paging. */
public final class SubAccountRoutes implements Routes.Feature {
    private final AccountService accounts;

    public SubAccountRoutes(AccountService accounts) { this.accounts = accounts; }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.SUB_LIST, this::subList);
    }

    /** §2.13 */
    public record SubListView(List<SubAccountView> list, boolean hasNext, String cursor) {}

    public record SubAccountView(String subUid, String username, String status, String accountMode, String type,
                                 String note, String createdTime, String updatedTime) {}

    private SubListView subList(ApiRequest r) {
        var p = r.params();
        int limit = p.intInRange("limit", 100, 1, 100);
        Long cursor = p.id("cursor");
        SubAccountPage page = accounts.subAccounts(r.uid(), cursor, limit);
        return new SubListView(page.list().stream().map(SubAccountRoutes::view).toList(), page.hasNext(), page.cursor());
    }

    private static SubAccountView view(Account a) {
        return new SubAccountView(Long.toString(a.uid()), a.username(), a.status().name(), a.kind().name(),
                a.type().name(), a.note(), Long.toString(a.createdTime()), Long.toString(a.updatedTime()));
    }
}
