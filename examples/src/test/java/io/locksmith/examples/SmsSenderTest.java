package io.locksmith.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locksmith.LockClient;
import io.locksmith.LockTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class SmsSenderTest {

    @Test
    void sendsAHundredInAMinuteAndRefusesTheRest() {
        List<String> sent = Collections.synchronizedList(new ArrayList<>());
        try (LockClient one = LockClient.open("memory://sms-example");
                LockClient two = LockClient.open("memory://sms-example")) {
            SmsSender first = new SmsSender(one, (to, text) -> sent.add(to));
            SmsSender second = new SmsSender(two, (to, text) -> sent.add(to));
            int accepted = 0;
            for (int i = 0; i < 120; i++) {
                if ((i % 2 == 0 ? first : second).trySend("+4100000" + i, "your code is " + i)) {
                    accepted++;
                }
            }
            assertThat(accepted)
                    .as("[memory] rate limiter example: messages sent in the first minute by two instances")
                    .isEqualTo(100);
            assertThat(sent).hasSize(100);
            assertThatThrownBy(() -> first.send("+41999", "late", Duration.ZERO))
                    .as("[memory] rate limiter example: no room left this minute")
                    .isInstanceOf(LockTimeoutException.class);
            assertThat(sent).hasSize(100);
        }
    }
}
