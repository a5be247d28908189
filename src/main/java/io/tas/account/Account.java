package io.tas.account;

import io.tas.account.AccountEnums.AccountKind;
import io.tas.account.AccountEnums.AccountStatus;
import io.tas.account.AccountEnums.AccountType;

/** A main account (parentUid null) or a sub-account: §2.2 and §2.13. */
public record Account(
        long uid,
        Long parentUid,
        String username,
        AccountType type,
        AccountKind kind,
        AccountStatus status,
        String note,
        String inviterId,
        String channelCode,
        String channel,
        boolean realityAllowed,
        long createdTime,
        long updatedTime) {

    public boolean isSub() { return parentUid != null; }
}
