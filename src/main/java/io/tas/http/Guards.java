package io.tas.http;

import io.tas.account.AccountEnums.AccountKind;
import io.tas.account.AccountEnums.DeltaSwitch;
import io.tas.account.AccountService;
import io.tas.auth.ApiKey.PermType;
import io.tas.auth.Caller;
import io.tas.auth.Permission;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;

/** DESIGN request path, guards step: account kind, permission (§5) and read/write, and the §7.2 caller conditions. */
final class Guards {
    private final AccountService accounts;

    Guards(AccountService accounts) { this.accounts = accounts; }

    void check(Endpoint ep, Caller caller) {
        // The account kind comes before the key's permissions (decisions.md D6, D10): clients detect a classic
        // key by the 40084 of a v3 row, and a classic key carries no uta_* permission to get past a 40014 first.
        AccountKind kind = caller.account().kind();
        if (ep.family() == Endpoint.Family.UNIFIED && kind == AccountKind.CLASSIC) throw new ApiException(ErrorCode.CLASSIC_ACCOUNT_ON_UNIFIED_API);
        if (ep.family() == Endpoint.Family.CLASSIC && kind == AccountKind.UNIFIED) throw new ApiException(ErrorCode.UNIFIED_ACCOUNT_ON_CLASSIC_API);
        if (ep.permission() != Permission.NONE && !caller.key().permissions().contains(ep.permission())) {
            throw new ApiException(ErrorCode.PERMISSION_DENIED, ep.permission().wire());
        }
        if (ep.access() == Endpoint.Access.WRITE && caller.key().permType() == PermType.READ_ONLY) {
            throw new ApiException(ErrorCode.PERMISSION_DENIED, PermType.READ_AND_WRITE.wire());
        }
        for (Endpoint.Guard g : ep.guards()) {
            switch (g) {
                case MAIN_ONLY, PARENT_ONLY -> {
                    if (caller.account().isSub()) throw new ApiException(ErrorCode.SUB_ACCOUNT_FORBIDDEN);
                }
                case REALITY_ALLOW_LIST -> {
                    if (!caller.account().realityAllowed()) throw new ApiException(ErrorCode.PERMISSION_DENIED, "reality allow-list");
                }
                case DELTA_ON -> {
                    if (accounts.settings(caller.uid()).deltaSwitch() != DeltaSwitch.yes) {
                        throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "deltaSwitch is no");
                    }
                }
            }
        }
    }
}
