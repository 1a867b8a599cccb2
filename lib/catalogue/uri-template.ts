/** The variable names of an RFC 6570 template, in order (`{a}`, `{+path}`, `{?q,page}`). */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, expression] of template.matchAll(/\{([^}]*)\}/g)) {
    for (const part of expression.replace(/^[+#./;?&]/, '').split(',')) {
      const name = part.replace(/[*]$|:\d+$/, '').trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/**
 * An RFC 6570 template (levels 1–3) parsed once, as the function that fills it with values the way the
 * remote will parse them: literal parts and expressions, each with its operator, names and encoding.
 */
export function expander(template: string): (values: Record<string, string>) => string {
  type Part = string | ((values: Record<string, string>) => string);
  const parts: Part[] = [];
  let last = 0;
  for (const match of template.matchAll(/\{([^}]*)\}/g)) {
    parts.push(template.slice(last, match.index));
    last = match.index! + match[0].length;
    const expression = match[1];
    const operator = /^[+#./;?&]/.test(expression) ? expression[0] : '';
    const names = expression.slice(operator.length).split(',').map((n) => n.replace(/[*]$|:\d+$/, '').trim());
    const encode = operator === '+' || operator === '#' ? encodeURI : encodeURIComponent;
    const separator = { '': ',', '+': ',', '#': ',', '.': '.', '/': '/', ';': ';', '?': '&', '&': '&' }[operator]!;
    const named = operator === ';' || operator === '?' || operator === '&';
    const prefix = operator === '+' ? '' : operator;
    parts.push((values) => {
      const present = names.filter((n) => values[n] !== undefined && values[n] !== '');
      if (present.length === 0) return '';
      return prefix + present.map((n) => (named ? `${n}=${encode(values[n])}` : encode(values[n]))).join(separator);
    });
  }
  parts.push(template.slice(last));
  return (values) => parts.map((part) => (typeof part === 'string' ? part : part(values))).join('');
}
