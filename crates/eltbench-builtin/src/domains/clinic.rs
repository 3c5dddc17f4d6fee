//! `clinic`: an outpatient clinic — departments, doctors, patients,
//! appointments, prescriptions, the medication catalogue and invoices.

use crate::row;
use crate::seeded::{Gen, cents};
use crate::spec::{Format, Place, Table, TaskSpec};

pub fn task() -> TaskSpec {
    let mut g = Gen::new("clinic");
    let mut departments = Table::new(
        "departments",
        Place::Postgres,
        &[
            ("department_id", "Identifier of the department."),
            ("department_name", "Name of the department."),
            ("floor", "Floor of the building the department is on."),
        ],
    );
    for (id, name) in [
        "Cardiology",
        "Dermatology",
        "Family Medicine",
        "Orthopaedics",
        "Paediatrics",
        "Neurology",
    ]
    .iter()
    .enumerate()
    {
        departments.push(row![id + 1, name, g.int(0, 4)]);
    }
    let mut doctors = Table::new(
        "doctors",
        Place::Postgres,
        &[
            ("doctor_id", "Identifier of the doctor."),
            ("first_name", "Doctor's first name."),
            ("last_name", "Doctor's last name."),
            ("department_id", "Department the doctor works in."),
            ("hired_on", "Date the doctor joined the clinic."),
        ],
    );
    for id in 1..=15 {
        doctors.push(row![
            id,
            g.first_name(),
            g.last_name(),
            (id - 1) % 6 + 1,
            g.date("2010-01-01", 4000)
        ]);
    }
    let mut patients = Table::new(
        "patients",
        Place::Mongodb,
        &[
            ("patient_id", "Identifier of the patient."),
            ("first_name", "Patient's first name."),
            ("last_name", "Patient's last name."),
            ("birth_date", "Date of birth."),
            ("sex", "F, M or X."),
            ("phone", "Contact number; missing for some patients."),
        ],
    );
    for id in 1..=60 {
        let phone = if g.chance(80) {
            format!("+44 20 {:04} {:04}", g.int(0, 9999), g.int(0, 9999))
        } else {
            String::new()
        };
        patients.push(row![
            id,
            g.first_name(),
            g.last_name(),
            g.date("1940-01-01", 30000),
            g.pick(&["F", "M", "F", "M", "X"]),
            phone
        ]);
    }
    let mut appointments = Table::new(
        "appointments",
        Place::Postgres,
        &[
            ("appointment_id", "Identifier of the appointment."),
            ("patient_id", "Patient seen."),
            ("doctor_id", "Doctor consulted."),
            ("scheduled_at", "Date and time of the appointment."),
            ("status", "completed, no_show or cancelled."),
            ("fee", "Consultation fee in pounds."),
        ],
    );
    let mut completed = Vec::new();
    for id in 1..=230 {
        let status = g.pick(&[
            "completed",
            "completed",
            "completed",
            "completed",
            "no_show",
            "cancelled",
        ]);
        if status == "completed" {
            completed.push(id);
        }
        let doctor = if g.chance(40) {
            g.int(1, 5)
        } else {
            g.int(1, 15)
        };
        appointments.push(row![
            id,
            g.int(1, 60),
            doctor,
            g.timestamp("2024-02-01", 150),
            status,
            cents(g.int(6, 18) * 1000)
        ]);
    }
    let mut medications = Table::new(
        "medications",
        Place::S3(Format::Parquet),
        &[
            ("medication_id", "Identifier of the medication."),
            ("medication_name", "Generic name and strength."),
            ("unit_price", "Price of one pack in pounds."),
        ],
    );
    let meds = [
        "Amoxicillin 500mg",
        "Ibuprofen 400mg",
        "Atorvastatin 20mg",
        "Metformin 850mg",
        "Cetirizine 10mg",
        "Omeprazole 20mg",
        "Salbutamol inhaler",
        "Hydrocortisone cream",
        "Lisinopril 10mg",
        "Sertraline 50mg",
    ];
    for (i, name) in meds.iter().enumerate() {
        medications.push(row![i + 1, name, g.money(150, 4500)]);
    }
    let mut prescriptions = Table::new(
        "prescriptions",
        Place::CustomApi,
        &[
            ("prescription_id", "Identifier of the prescription."),
            ("appointment_id", "Appointment at which it was written."),
            ("medication_id", "Medication prescribed."),
            ("quantity", "Number of packs."),
        ],
    );
    let mut pid = 0;
    for &appt in &completed {
        for _ in 0..g.int(0, 2) {
            pid += 1;
            prescriptions.push(row![pid, appt, g.int(1, 10), g.int(1, 3)]);
        }
    }
    let mut invoices = Table::new(
        "invoices",
        Place::FlatFile(Format::Csv),
        &[
            ("invoice_id", "Identifier of the invoice."),
            ("appointment_id", "Appointment billed."),
            ("amount", "Amount billed in pounds."),
            ("paid_amount", "Amount paid so far in pounds."),
            ("issued_on", "Date the invoice was issued."),
        ],
    );
    for (i, &appt) in completed.iter().enumerate() {
        let amount = g.int(40, 250) * 100;
        let paid = if g.chance(70) {
            amount
        } else {
            amount * g.int(0, 9) / 10
        };
        invoices.push(row![
            i + 1,
            appt,
            cents(amount),
            cents(paid),
            g.date("2024-02-01", 160)
        ]);
    }
    TaskSpec {
        db: "clinic",
        tables: vec![
            departments,
            doctors,
            patients,
            appointments,
            medications,
            prescriptions,
            invoices,
        ],
    }
}
