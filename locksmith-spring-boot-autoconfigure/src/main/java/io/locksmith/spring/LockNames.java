package io.locksmith.spring;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.ParserContext;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Turns a {@link Locked#name()} template into a lock name for one call: placeholders first, then
 * the {@code #{...}} SpEL parts over the call's arguments. Each method's template is parsed once.
 */
final class LockNames {

    // a variable that is not an argument by position (#p0, #a0) nor SpEL's own (#root, #this)
    private static final Pattern ARGUMENT_BY_NAME =
            Pattern.compile("#(?!(?:root|this|[pa]\\d+)\\b)([A-Za-z_$][A-Za-z0-9_$]*)");

    private final SpelExpressionParser parser = new SpelExpressionParser();
    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();
    private final Map<Method, Expression> templates = new ConcurrentHashMap<>();
    private final BeanFactory beans;

    LockNames(BeanFactory beans) {
        this.beans = beans;
    }

    String resolve(Locked locked, Method method, Object target, Object[] arguments) {
        Expression template = templates.computeIfAbsent(method, m -> parse(locked.name(), m));
        MethodBasedEvaluationContext context =
                new MethodBasedEvaluationContext(target, method, arguments, parameterNames);
        context.setBeanResolver(new BeanFactoryResolver(beans));
        Object name;
        try {
            name = template.getValue(context);
        } catch (EvaluationException e) {
            throw new IllegalStateException(
                    "the @Locked name '" + locked.name() + "' of " + Methods.describe(method)
                            + " cannot be evaluated: " + e.getMessage() + " (arguments are named only when the class is"
                            + " compiled with -parameters; #p0, #p1... always work)",
                    e);
        }
        if (name == null || name.toString().isEmpty()) {
            throw new IllegalStateException("the @Locked name '" + locked.name() + "' of " + Methods.describe(method)
                    + " evaluated to an empty lock name");
        }
        return name.toString();
    }

    /**
     * A template that names an argument ({@code #orderId}) of a method whose class file has no
     * parameter names (compiled without {@code -parameters}) would read it as nothing, silently:
     * every order would share the lock {@code order:}. That is an error, with the way out.
     */
    private void requireNamesFor(String name, Method method) {
        if (method.getParameterCount() == 0 || parameterNames.getParameterNames(method) != null) {
            return;
        }
        Matcher named = ARGUMENT_BY_NAME.matcher(name);
        if (named.find()) {
            throw new IllegalStateException("the @Locked name '" + name + "' of " + Methods.describe(method)
                    + " refers to #" + named.group(1) + ", but the class file of " + Methods.describe(method)
                    + " has no parameter names: compile it with -parameters (Spring Boot's Maven and Gradle"
                    + " plugins do), or refer to the arguments by position, #p0, #p1...");
        }
    }

    /** Resolves {@code ${...}} placeholders in an attribute, where the bean factory can. */
    String placeholders(String value) {
        if (beans instanceof ConfigurableBeanFactory configurable && value.contains("${")) {
            return configurable.resolveEmbeddedValue(value);
        }
        return value;
    }

    private Expression parse(String name, Method method) {
        requireNamesFor(name, method);
        try {
            return parser.parseExpression(placeholders(name), ParserContext.TEMPLATE_EXPRESSION);
        } catch (ParseException e) {
            throw new IllegalStateException(
                    "the @Locked name '" + name + "' of " + Methods.describe(method)
                            + " is not a valid template (text with SpEL in #{...}): " + e.getMessage(),
                    e);
        }
    }
}
