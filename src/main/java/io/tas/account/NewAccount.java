package io.tas.account;

import io.tas.account.AccountEnums.AccountKind;
import io.tas.account.AccountEnums.AccountStatus;
import io.tas.account.AccountEnums.AccountType;

/**
 * Command: create a main account or (parentUid set) a sub-account. uid and createdTime may be
 * given by a seed file so scenarios are reproducible; otherwise they come from the ID generator and clock.
 */
public record NewAccount(
        Long uid,
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
        Long createdTime,
        AccountSettings settings) {}
