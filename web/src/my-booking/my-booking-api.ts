import {
  myBookingCalendarPath,
  myBookingReceiptPath,
  myBookingRoutes,
} from '@deposito/protocol/api/my-booking';
import { callRoute } from '../api/call-route';

/** The booking behind a private link (ApiError `my_booking/not_found` when unknown, expired or revoked). */
export const readMyBooking = (token: string) => callRoute(myBookingRoutes.read, { params: { token } });

/** A private link for the paid booking the completion page shows. */
export const requestMyBookingLink = (transactionId: string) =>
  callRoute(myBookingRoutes.link, { params: { transactionId } });

/** Where the browser downloads the booking's calendar file. */
export const myBookingCalendarUrl = (token: string) => myBookingCalendarPath(encodeURIComponent(token));

/** Where the browser downloads the booking's PDF receipt. */
export const myBookingReceiptUrl = (token: string) => myBookingReceiptPath(encodeURIComponent(token));

/** The visitor's page of a token (the web route). */
export const myBookingPagePath = (token: string) => `/my-booking/${encodeURIComponent(token)}`;

/** The visitor cancels under the policy; the booking as it is afterwards. */
export const cancelMyBooking = (token: string) => callRoute(myBookingRoutes.cancel, { params: { token } });

/** Sends the confirmation again to the booking's own address; where it went, partly hidden. */
export const resendMyBookingConfirmation = (token: string) =>
  callRoute(myBookingRoutes.resend, { params: { token } });

/** Holds the lockers for the longer stay chosen; the payment provider's page for the difference. */
export const extendMyBooking = (token: string, endIso: string) =>
  callRoute(myBookingRoutes.extend, { params: { token }, body: { endIso } });
