package io.locksmith.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.locksmith.spi.Redaction;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RedactorTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "redis://user:hunter2@host:6379/0|redis://user:****@host:6379/0",
                "redis://hunter2@host:6379|redis://****@host:6379",
                "rediss://:hunter2@host|rediss://:****@host",
                "jdbc:postgresql://db/app?user=app&password=hunter2&ssl=true|jdbc:postgresql://db/app?user=app&password=****&ssl=true",
                "jdbc:sqlserver://db;user=app;password=hunter2;db=x|jdbc:sqlserver://db;user=app;password=****;db=x",
                "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=hunter2;EndpointSuffix=x|DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=****;EndpointSuffix=x",
                "azblob://acct.blob.core.windows.net/c?sv=2024&sig=hunter2|azblob://acct.blob.core.windows.net/c?sv=2024&sig=****",
                "etcd://root:p@ss@w0rd@h1:2379,h2:2379|etcd://root:****@h1:2379,h2:2379",
                "memory://group|memory://group",
                "redis://user:pa?ss#w@host:6379/0|redis://user:****@host:6379/0",
                "jdbc:mysql://db/app?user=app&password1=a&password2=b&password3=c|jdbc:mysql://db/app?user=app&password1=****&password2=****&password3=****",
                "jdbc:postgresql://db/app?user=app&password=p@ss|jdbc:postgresql://db/app?user=app&password=****",
            })
    void masksSecrets(String in, String out) {
        assertThat(Redaction.redact(in)).isEqualTo(out);
    }

    @Test
    void masksSecretOptions() {
        assertThat(Redaction.redactOptions(Map.of("password", "x", "user", "u", "account-key", "k")))
                .containsEntry("password", "****")
                .containsEntry("user", "u")
                .containsEntry("account-key", "****");
    }
}
