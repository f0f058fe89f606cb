package io.locksmith.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;

/** Lock names from @Locked templates, with and without the method's parameter names in its class file. */
class LockNamesTest {

    private final LockNames names = new LockNames(new DefaultListableBeanFactory());

    @Locked(name = "order:#{#orderId}")
    void byName(String orderId) {}

    @Locked(name = "order:#{#p0}")
    void byPosition(String orderId) {}

    private static Locked locked(String method) throws NoSuchMethodException {
        return LockNamesTest.class.getDeclaredMethod(method, String.class).getAnnotation(Locked.class);
    }

    /** A class like the application's, compiled without -parameters, as javac does by default. */
    private static Method shipWithoutParameterNames(Path dir) throws IOException, ReflectiveOperationException {
        Path source = dir.resolve("Shipper.java");
        Files.writeString(source, "public class Shipper { public void ship(String orderId) {} }");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, null, "-d", dir.toString(), source.toString()))
                .isZero();
        URLClassLoader loader =
                new URLClassLoader(new java.net.URL[] {dir.toUri().toURL()});
        return loader.loadClass("Shipper").getMethod("ship", String.class);
    }

    @Test
    void anArgumentIsReadByItsName() throws Exception {
        Method method = LockNamesTest.class.getDeclaredMethod("byName", String.class);
        assertThat(names.resolve(locked("byName"), method, this, new Object[] {"81723"}))
                .isEqualTo("order:81723");
    }

    @Test
    void withoutParameterNamesANamedArgumentIsAClearErrorNotAnEmptyPart(@TempDir Path dir) throws Exception {
        Method ship = shipWithoutParameterNames(dir);
        assertThatThrownBy(() -> names.resolve(locked("byName"), ship, null, new Object[] {"81723"}))
                .as("two orders would share the lock 'order:' if #orderId silently read as nothing")
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("#orderId")
                .hasMessageContaining("Shipper.ship")
                .hasMessageContaining("-parameters")
                .hasMessageContaining("#p0");
    }

    @Test
    void withoutParameterNamesAnArgumentByPositionWorks(@TempDir Path dir) throws Exception {
        Method ship = shipWithoutParameterNames(dir);
        assertThat(names.resolve(locked("byPosition"), ship, null, new Object[] {"81723"}))
                .isEqualTo("order:81723");
        assertThat(List.of(ship.getParameters())).allMatch(p -> !p.isNamePresent());
    }
}
