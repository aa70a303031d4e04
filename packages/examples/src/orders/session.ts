/** The signed-in customer, established by the application (login, a guard), never by the model. */
export interface Session {
  customerId: string;
}
