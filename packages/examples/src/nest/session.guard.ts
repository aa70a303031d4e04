import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Session } from '../orders/session';

/** Requests as this app sees them after the guard: the signed-in customer in `user`. */
export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  user: Session;
}

/**
 * A stand-in for real authentication (a session cookie, a JWT): it trusts the `x-customer-id`
 * header. Whatever the mechanism, the point is where the identity lands: `request.user`, set
 * by the app, never by the model.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const customerId = request.headers['x-customer-id'];
    if (typeof customerId !== 'string' || !/^C-[a-z]+$/.test(customerId)) {
      throw new UnauthorizedException('send the x-customer-id header (C-<name>)');
    }
    request.user = { customerId };
    return true;
  }
}
