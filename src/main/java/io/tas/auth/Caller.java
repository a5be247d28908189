package io.tas.auth;

import io.tas.account.Account;

/** Who is calling: the verified key and the account it belongs to. Every read and write is scoped to account.uid(). */
public record Caller(ApiKey key, Account account) {
    public long uid() { return account.uid(); }
}
