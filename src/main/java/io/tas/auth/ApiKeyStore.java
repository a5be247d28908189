package io.tas.auth;

import io.tas.auth.ApiKey.PermType;
import org.jooq.DSLContext;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static io.tas.store.generated.Tables.API_KEY;

/** SQL for API keys. */
class ApiKeyStore {

    /** A key row with its protected material, for the service only. */
    record StoredKey(ApiKey key, String secretCipher, String passphraseSalt, String passphraseHash) {}

    void insert(DSLContext dsl, StoredKey k) {
        ApiKey key = k.key();
        dsl.insertInto(API_KEY)
                .set(API_KEY.ACCESS_KEY, key.accessKey())
                .set(API_KEY.UID, key.uid())
                .set(API_KEY.LABEL, key.label())
                .set(API_KEY.SECRET_CIPHER, k.secretCipher())
                .set(API_KEY.PASSPHRASE_SALT, k.passphraseSalt())
                .set(API_KEY.PASSPHRASE_HASH, k.passphraseHash())
                .set(API_KEY.PERM_TYPE, key.permType().wire())
                .set(API_KEY.PERMISSIONS, key.permissions().stream().map(Permission::wire).collect(Collectors.joining(",")))
                .set(API_KEY.IPS, key.ipsWire())
                .set(API_KEY.CREATED_TIME, key.createdTime())
                .execute();
    }

    Optional<StoredKey> find(DSLContext dsl, String accessKey) {
        return dsl.selectFrom(API_KEY).where(API_KEY.ACCESS_KEY.eq(accessKey)).fetchOptional().map(r -> new StoredKey(
                new ApiKey(r.getAccessKey(), r.getUid(), r.getLabel(), PermType.fromWire(r.getPermType()),
                        split(r.getPermissions()).stream().map(Permission::fromWire).collect(Collectors.toCollection(LinkedHashSet::new)),
                        split(r.getIps()), r.getCreatedTime(), r.getRevokedTime() != null),
                r.getSecretCipher(), r.getPassphraseSalt(), r.getPassphraseHash()));
    }

    List<ApiKey> listByUid(DSLContext dsl, long uid) {
        return dsl.select(API_KEY.ACCESS_KEY).from(API_KEY).where(API_KEY.UID.eq(uid)).orderBy(API_KEY.CREATED_TIME)
                .fetch(API_KEY.ACCESS_KEY).stream().map(k -> find(dsl, k).orElseThrow().key()).toList();
    }

    /** Every key that can sign requests: created and not revoked. */
    List<String> liveAccessKeys(DSLContext dsl) {
        return dsl.select(API_KEY.ACCESS_KEY).from(API_KEY).where(API_KEY.REVOKED_TIME.isNull()).fetch(API_KEY.ACCESS_KEY);
    }

    boolean revoke(DSLContext dsl, String accessKey, long now) {
        return dsl.update(API_KEY).set(API_KEY.REVOKED_TIME, now)
                .where(API_KEY.ACCESS_KEY.eq(accessKey).and(API_KEY.REVOKED_TIME.isNull())).execute() == 1;
    }

    private static List<String> split(String csv) {
        return csv == null || csv.isBlank() ? List.of() : Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
