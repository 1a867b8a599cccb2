import { type CallHandler, type ExecutionContext, Injectable, Logger, type NestInterceptor } from '@nestjs/common';
import { tap } from 'rxjs';

/** An RxJS interceptor, the Nest way: logs how long each MCP call (or REST request) took. */
@Injectable()
export class TimingInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Timing');

  intercept(context: ExecutionContext, next: CallHandler) {
    const started = Date.now();
    const what = `${context.getType()} ${context.getClass().name}.${context.getHandler().name}`;
    return next.handle().pipe(tap(() => this.logger.debug(`${what} took ${Date.now() - started} ms`)));
  }
}
